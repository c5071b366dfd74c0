#ifndef DIRECTME_SENONE_SCORER_H
#define DIRECTME_SENONE_SCORER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/// Scores every senone of pocketsphinx's phonetically tied mixture model ("ptm", the
/// en-us model's kind) in every frame of a whole utterance, as pocketsphinx's own
/// `ptm_mgau_frame_eval` does with `-compallsen yes`, and writes the scores in its senone
/// dump format (`acmod_write_senfh_header`, then per frame the senone count and one
/// 16-bit score each). The same numbers, computed several times faster: the Gaussians
/// of a codebook are evaluated all at once (vectorized) instead of one by one with
/// early exits, and the senones of a codebook together.
///
/// The model's parameters are read from the decoder's loaded acoustic model (its
/// `acmod_t`, whose layout is pocketsphinx 5prealpha's, checked against what it must hold);
/// the features are the decoder's own (its front end and batch cepstral mean).
typedef struct directme_senone_scorer directme_senone_scorer;

/// A scorer for the decoder whose `acmod_t` is `acmod`, or NULL when its acoustic model
/// is not a ptm model laid out as this code expects (use pocketsphinx's scoring then).
directme_senone_scorer *directme_senone_scorer_create(void *acmod);

void directme_senone_scorer_free(directme_senone_scorer *scorer);

/// Computes the features of `count` samples (one whole utterance) with the decoder's front
/// end and writes every senone's score in every frame to `out`, header first. Returns the
/// number of frames written, or -1 on failure. The decoder must not be in an utterance.
int directme_senone_scorer_score(directme_senone_scorer *scorer, void *acmod, const int16_t *samples, size_t count,
                                 FILE *out);

#endif
