// The checks of header_check.c compiled as C++11.
#include "header_check.c"
