// Compiled only by the analysis tests' stand-in nvcc: never built.
