//===- Units.h - Durations and energies as people read them -----*- C++ -*-===//
//
// The console's one way to print a predicted time or energy: the unit that
// keeps the number between 1 and 1000 (ns, us, ms, s; nJ, uJ, mJ, J) and 4
// significant digits, never an exponent ("21.35 ms", not "2.135e+04 us").
// Reports and remark records keep their fixed units. python/energy/console.py
// prints energy-cuda's table the same way.
//
//===----------------------------------------------------------------------===//
#ifndef ENERGY_UNITS_H
#define ENERGY_UNITS_H

#include <string>

namespace energy {

/// Seconds as "850 ns", "73.36 us", "21.35 ms", "1.5 s"; "n/a" when not
/// finite.
std::string formatDuration(double Seconds);

/// Joules as "12 uJ", "30.37 mJ", "7.75 J"; "n/a" when not finite.
std::string formatEnergy(double Joules);

} // namespace energy

#endif
