#ifndef DIRECTME_CPULSE_SHIM_H
#define DIRECTME_CPULSE_SHIM_H
#include <pulse/pulseaudio.h>
#endif
