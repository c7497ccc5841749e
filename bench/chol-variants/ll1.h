/* chol variant: f64 nb = 8 by the left-looking kernel (scripts/chol-variants.sh) */
#define TILE__CHOL_LL 1
