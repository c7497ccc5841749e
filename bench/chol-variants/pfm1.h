#define TILE__CHOL_PFD_f64 396
#define TILE__CHOL_PFK (-1)
