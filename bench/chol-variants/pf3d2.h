#define TILE__CHOL_PFD_f64 792
#define TILE__CHOL_PFK 3
