/* chol variant: every prepared form at once (for chol_test and the sanitizers) */
#define TILE__CHOL_LL 2
#define TILE__CHOL_S16ST 1
