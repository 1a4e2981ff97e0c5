"""Evaluate the small expressions of a tuning problem over one configuration.

Tuning scripts write restrictions, grid divisors and problem sizes as Python expressions
over the tunable parameters ("block_size_x*block_size_y>=64"). The problem specs under
data/kernel-tuner/ transcribe them as strings; this evaluates them without exec or eval:
only arithmetic, comparisons, boolean logic, conditional expressions, min/max and
parameter names are accepted.
"""

import ast
import functools
import operator

_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
           ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv,
           ast.Mod: operator.mod, ast.Pow: operator.pow}
_UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Not: operator.not_}
_COMPARE = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt,
            ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge}
_CALLS = {"min": min, "max": max}


class ExprError(Exception):
    """An expression outside the accepted subset, or a name with no value."""


@functools.lru_cache(maxsize=1024)   # a search space evaluates the same few, often
def parse(text):
    """The checked syntax tree of `text`; raises ExprError for anything not accepted."""
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as e:
        raise ExprError(f"'{text}': {e.msg}") from None
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED):
            raise ExprError(f"'{text}': {type(node).__name__} is not allowed")
        if isinstance(node, ast.Call) and not (
                isinstance(node.func, ast.Name) and node.func.id in _CALLS and not node.keywords):
            raise ExprError(f"'{text}': only min(...) and max(...) may be called")
        if isinstance(node, ast.Constant) and type(node.value) not in (int, float, bool):
            raise ExprError(f"'{text}': constant {node.value!r} is not a number")
    return tree


def evaluate(text, values):
    """The value of expression `text` with parameter names bound by the dict `values`."""
    return _eval(parse(text).body, values, text)


def _eval(node, values, text):
    def sub(n):
        return _eval(n, values, text)

    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in values:
            raise ExprError(f"'{text}': unknown parameter '{node.id}'")
        return values[node.id]
    if isinstance(node, ast.BinOp):
        return _BINARY[type(node.op)](sub(node.left), sub(node.right))
    if isinstance(node, ast.UnaryOp):
        return _UNARY[type(node.op)](sub(node.operand))
    if isinstance(node, ast.BoolOp):
        # Short-circuit as Python does: `a and b % a` must not divide by zero.
        result = sub(node.values[0])
        for operand in node.values[1:]:
            if isinstance(node.op, ast.And) != bool(result):
                return result
            result = sub(operand)
        return result
    if isinstance(node, ast.Compare):
        left = sub(node.left)
        for op, right_node in zip(node.ops, node.comparators):
            right = sub(right_node)
            if not _COMPARE[type(op)](left, right):
                return False
            left = right
        return True
    if isinstance(node, ast.IfExp):
        return sub(node.body) if sub(node.test) else sub(node.orelse)
    if isinstance(node, ast.Call):
        return _CALLS[node.func.id](*(sub(a) for a in node.args))
    raise ExprError(f"'{text}': {type(node).__name__} is not allowed")


_ALLOWED = (ast.Expression, ast.Constant, ast.Name, ast.Load, ast.BinOp, ast.UnaryOp,
            ast.BoolOp, ast.Compare, ast.IfExp, ast.Call, ast.And, ast.Or,
            *_BINARY, *_UNARY, *_COMPARE)
