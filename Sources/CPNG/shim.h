// libpng (Debian: libpng-dev, found through pkg-config).
#include <png.h>
