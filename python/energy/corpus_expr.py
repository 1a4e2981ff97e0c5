"""The integer expressions of corpus.json (docs/bench-format.md), evaluated per config.

Grids, buffer counts and shared memory sizes follow C's integer arithmetic, unlike the
tuning problems' Python expressions (energy.param_expr); the text is parsed with ast and
walked, never eval'ed.
"""

import ast
import re

_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Mod: "%"}
_FUNCTIONS = {"ceil": 1, "min": 2, "max": 2}
MAX_EXPRESSION = 400


def _c_div(a, b):
    """Integer division truncating toward zero, as in C."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def evaluate(text, names):
    """The integer value of a corpus expression (docs/bench-format.md).

    Integers, + - * / % (integer division and remainder, as in C), parentheses,
    ceil(a / b) (rounds the division up), min(a, b), max(a, b) and the given names.
    Anything else (floats, other calls, attributes, **, //, comparisons ...) is
    rejected: the text is parsed with ast and walked, never eval'ed. Raises ValueError.
    """
    if isinstance(text, bool):
        raise ValueError("not an expression")
    if isinstance(text, int):
        return text
    if not isinstance(text, str) or not text.strip():
        raise ValueError("not an expression")
    if len(text) > MAX_EXPRESSION:
        raise ValueError(f"longer than {MAX_EXPRESSION} characters")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        raise ValueError("syntax error") from None
    return _eval_node(tree.body, names)


def _eval_node(node, names):
    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool) or not isinstance(node.value, int):
            raise ValueError(f"'{node.value!r}' is not an integer")
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in names:
            raise ValueError(f"unknown name '{node.id}'")
        return names[node.id]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = _eval_node(node.operand, names)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        a, b = _eval_node(node.left, names), _eval_node(node.right, names)
        if isinstance(node.op, ast.Add):
            return a + b
        if isinstance(node.op, ast.Sub):
            return a - b
        if isinstance(node.op, ast.Mult):
            return a * b
        if b == 0:
            raise ValueError("division by zero")
        if isinstance(node.op, ast.Div):
            return _c_div(a, b)
        return a - b * _c_div(a, b)
    if isinstance(node, ast.Call):
        name = node.func.id if isinstance(node.func, ast.Name) else None
        if name not in _FUNCTIONS:
            raise ValueError("only ceil(), min() and max() may be called")
        if node.keywords or len(node.args) != _FUNCTIONS[name]:
            raise ValueError(f"{name}() takes {_FUNCTIONS[name]} argument(s)")
        if name == "ceil":
            arg = node.args[0]
            if isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Div):
                a, b = _eval_node(arg.left, names), _eval_node(arg.right, names)
                if b == 0:
                    raise ValueError("division by zero")
                return -(-a // b)  # Python's // floors: this rounds a / b up
            return _eval_node(arg, names)
        a, b = (_eval_node(arg, names) for arg in node.args)
        return min(a, b) if name == "min" else max(a, b)
    what = type(node).__name__
    if isinstance(node, ast.BinOp):
        what = {ast.FloorDiv: "//", ast.Pow: "**"}.get(type(node.op), type(node.op).__name__)
    raise ValueError(f"'{what}' is not allowed (integers, + - * / %, ceil, min, max, names)")


def _number(text):
    """A float literal of an init spec, possibly negative."""
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        raise ValueError(f"'{text.strip()}' is not a number") from None
    sign = 1
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        sign = -1 if isinstance(node.op, ast.USub) else 1
        node = node.operand
    if not isinstance(node, ast.Constant) or isinstance(node.value, bool) \
            or not isinstance(node.value, (int, float)):
        raise ValueError(f"'{text.strip()}' is not a number")
    return sign * node.value


def evaluate_init(text, names):
    """A buffer's init spec with its arguments evaluated, e.g. 'randint(0,4096)'."""
    if not isinstance(text, str):
        raise ValueError("init must be a string")
    m = re.fullmatch(r"\s*([a-z_]+)\s*(?:\((.*)\))?\s*", text)
    if not m:
        raise ValueError(f"init '{text}' is not NAME or NAME(ARGS)")
    name, args = m.group(1), m.group(2)
    parts = [] if args is None or not args.strip() else args.split(",")
    arity = {"uniform": 2, "randint": 2, "csr_row_ptr": 1, "zeros": 0, "iota": 0}
    if name not in arity:
        raise ValueError(f"unknown init '{text}' (expected uniform(lo,hi), randint(lo,hi), "
                         "zeros, csr_row_ptr(k) or iota)")
    if len(parts) != arity[name]:
        raise ValueError(f"init '{text}' takes {arity[name]} argument(s)")
    if name == "uniform":
        lo, hi = (_number(p) for p in parts)
        if not lo < hi:
            raise ValueError(f"init '{text}' needs lo < hi")
        return f"uniform({lo!r},{hi!r})"
    if not parts:
        return name
    values = [evaluate(p.strip(), names) for p in parts]
    if name == "randint" and not values[0] < values[1]:
        raise ValueError(f"init '{text}' needs lo < hi")
    return f"{name}({','.join(str(v) for v in values)})"
