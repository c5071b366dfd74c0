#ifndef DIRECTME_CSNDFILE_SHIM_H
#define DIRECTME_CSNDFILE_SHIM_H
#include <sndfile.h>
#endif
