"""structured_ops code generator: native_functions.yaml -> model -> C++ APIs -> sources."""
