"""Translation of the model into C++ signatures (one module per C++ API)."""
