/* chol variant: every prepared form at once (for chol_test and the sanitizers; the left-looking
 * kernel with its K-split, whose task split covers the plain form's paths) */
#define TILE__CHOL_LL 2
#define TILE__CHOL_LL_KS 1
#define TILE__CHOL_S16ST 1
