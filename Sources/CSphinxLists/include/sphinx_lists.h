#ifndef DIRECTME_SPHINX_LISTS_H
#define DIRECTME_SPHINX_LISTS_H

#include <stddef.h>

/// sphinxbase's linked lists (`glist_t`, its glist.h) with their nodes from a pool.
///
/// pocketsphinx's FSG search keeps its active HMMs and each frame's history entries in such
/// lists, one node allocated with `calloc` and freed again per active HMM and frame: with
/// the final pass's wide beams, a fifth of DirectMe's decode time went to `calloc` and
/// `free`. This target defines every function of glist.c (same names, same behaviour); a
/// program linked with it exports them, and the dynamic linker binds sphinxbase's and
/// pocketsphinx's calls to them (sphinxbase calls its own list functions through its PLT
/// too). Nodes freed go to a free list of the thread that frees them and are used again;
/// the memory is never given back, and stays reachable from a list of the blocks allocated.

/// Blocks of nodes allocated so far (0 when sphinxbase's own list functions are in use:
/// for a check that the pool is the one in use).
size_t directme_sphinx_list_blocks(void);

#endif
