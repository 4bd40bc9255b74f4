// libpng: PNG encoding and decoding (its simplified png_image API) for `sekit plot` and reports.
#include <png.h>
// Function-like/compound macros Swift cannot import.
static const unsigned int sekit_png_format_rgba = PNG_FORMAT_RGBA;
