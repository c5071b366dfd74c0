#ifndef DIRECTME_CPULSESIMPLE_SHIM_H
#define DIRECTME_CPULSESIMPLE_SHIM_H
#include <pulse/simple.h>
#include <pulse/error.h>
#endif
