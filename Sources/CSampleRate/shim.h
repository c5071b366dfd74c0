#ifndef DIRECTME_CSAMPLERATE_SHIM_H
#define DIRECTME_CSAMPLERATE_SHIM_H
#include <samplerate.h>
#endif
