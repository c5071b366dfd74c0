#ifndef DIRECTME_SENONE_SCORER_H
#define DIRECTME_SENONE_SCORER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/// Scores the senones of pocketsphinx's phonetically tied mixture model ("ptm", the en-us
/// model's kind) in its place: attached to a decoder, it becomes the model's `frame_eval`,
/// which pocketsphinx calls for every frame it scores, and gives the numbers pocketsphinx's
/// own `ptm_mgau_frame_eval` gives, bit for bit, in less time: the Gaussians of a codebook
/// are evaluated side by side (vector lanes) instead of one by one with early exits, and
/// when every senone is scored (`-compallsen`) the senones of a codebook together.
///
/// The model's parameters are read from the decoder's loaded acoustic model (its `acmod_t`,
/// whose layout is pocketsphinx 5prealpha's, checked against what it must hold).
typedef struct directme_senone_scorer directme_senone_scorer;

/// Makes the decoder whose `acmod_t` is `acmod` score its model with DirectMe's scorer; NULL
/// (and pocketsphinx keeps scoring) when the model is not a ptm model laid out as expected.
directme_senone_scorer *directme_senone_scorer_attach(void *acmod);

/// With `threads` 2 or more, a helper thread scores half the codebooks of frames scored
/// together (every senone scored in a whole utterance: the final pass); 1 stops it. The
/// scores are the same either way. Returns the threads now scoring (1 when no helper could
/// start, or the processor or model is not one the batched path reads).
int directme_senone_scorer_set_threads(directme_senone_scorer *scorer, int threads);

/// Makes `scorer` read the mixture weights of `from`'s model, which must be the same file's
/// (the caller knows: the same `sendump`), so that a second decoder of one model leaves its own
/// mapping of them unread (not resident). Returns 1 when shared, 0 when the models' shapes
/// differ (nothing changes). `from`'s decoder must outlive `scorer`'s use of them.
int directme_senone_scorer_share_weights(directme_senone_scorer *scorer, directme_senone_scorer const *from);

/// Makes `scorer` read the means and precisions `from` reads, when both read their models' own
/// (in place) and these are the same, value for value (the same model file, the same
/// transform): `scorer`'s model's own are then left unread and their pages given back (1.7 MB
/// for the en-us model), until either scorer leaves or its model is transformed (MLLR), when
/// they are filled back. Returns 1 when shared, 0 otherwise (nothing changes).
int directme_senone_scorer_share_gaussians(directme_senone_scorer *scorer, directme_senone_scorer *from);

/// 1 when the scorer reads another's means and precisions (see
/// `directme_senone_scorer_share_gaussians`).
int directme_senone_scorer_shares_gaussians(directme_senone_scorer const *scorer);

/// The threads scoring now (see `directme_senone_scorer_set_threads`).
int directme_senone_scorer_threads(directme_senone_scorer const *scorer);

/// Gives the model back to pocketsphinx's own scoring and frees the scorer. Must come before
/// the decoder is freed.
void directme_senone_scorer_detach(directme_senone_scorer *scorer);

/// 1 when the scorer reads the model's own means and precisions (transposed in place while it
/// is attached, given back as they were when it leaves), 0 when it holds a copy of them.
int directme_senone_scorer_in_place(directme_senone_scorer const *scorer);

/// How many frames' codeword scores came from frames scored together (every senone scored in
/// a whole utterance, whose features are all at hand before the first frame is scored), since
/// the scorer was attached.
long directme_senone_scorer_frames_from_batches(directme_senone_scorer const *scorer);

/// 1 when the model's table of log-additions is short enough (every entry from the 31st on is
/// 0) to be read with byte shuffles when every senone is scored, 0 when it is read by gathers.
int directme_senone_scorer_short_table(directme_senone_scorer const *scorer);

/// Runs the top-N selection on `trials` random codebooks' scores (seeded by `seed`) with and
/// without the floor that passes over codewords that cannot end on top, and counts the
/// trials whose top codewords or their order differ: 0 when the floor changes nothing; -1
/// without AVX2 (there is no floor then).
long directme_senone_scorer_check_selection(int trials, unsigned seed);

/// The fit of the model to each frame scored with every senone since the fits were last
/// forgotten, in order: the best senone's log-likelihood (in pocketsphinx's scaled log units,
/// before its normalizations). Puts their number in `count`; the numbers stay valid until
/// the next frame is scored.
float const *directme_senone_scorer_fits(directme_senone_scorer const *scorer, long *count);

/// Forgets the fits kept so far.
void directme_senone_scorer_forget_fits(directme_senone_scorer *scorer);

#endif
