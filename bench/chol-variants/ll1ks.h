/* chol variant: f64 nb = 8 by the left-looking kernel with its K-split (scripts/chol-variants.sh) */
#define TILE__CHOL_LL 1
#define TILE__CHOL_LL_KS 1
