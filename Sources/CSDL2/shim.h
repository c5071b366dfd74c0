#ifndef DIRECTME_CSDL2_SHIM_H
#define DIRECTME_CSDL2_SHIM_H
#include <SDL2/SDL.h>
#include <SDL2/SDL_ttf.h>
#include <SDL2/SDL_image.h>
#endif
