"""float16-weights cases: constants stored as FLOAT16 behind DEQUANTIZE, float32 compute."""
import cases_float
from common import variant
from converters import build_float16_weights

WEIGHTED = {"CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "TRANSPOSE_CONV", "PRELU"}
CONST_OPERAND = {"ADD", "SUB", "MUL", "DIV", "MAXIMUM", "MINIMUM", "SQUARED_DIFFERENCE"}


def cases():
    out = []
    for c in cases_float.base_cases():
        constant_case = c.case_id.startswith("const_")
        if c.op in WEIGHTED or (c.op in CONST_OPERAND and constant_case):
            out.append(variant(c, "float16_weights", build_float16_weights))
        if c.op in ("ADD", "MUL") and constant_case:
            # The same model filed under DEQUANTIZE: FLOAT16 constant -> FLOAT32.
            out.append(variant(c, "float16_weights", build_float16_weights, op="DEQUANTIZE",
                               case_id=f"{c.op.lower()}_{c.case_id}", aux_ops=(c.op,)))
    return out
