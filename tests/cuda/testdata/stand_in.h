// A header of the stand-in CUDA runtime the analysis tests link (never compiled).
#pragma once
