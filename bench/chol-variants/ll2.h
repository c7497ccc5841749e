/* chol variant: f64 nb 5...8 by the left-looking kernel */
#define TILE__CHOL_LL 2
