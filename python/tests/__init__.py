"""Unit tests of the energy package; fixtures are SYNTHETIC (see make_synthetic.py)."""
