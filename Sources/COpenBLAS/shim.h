// OpenBLAS's CBLAS interface (Debian: libopenblas-dev, found through pkg-config).
#include <cblas.h>
