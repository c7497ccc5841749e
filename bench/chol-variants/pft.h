#define TILE__CHOL_PFD_f64 1
#define TILE__CHOL_PFD_f32 1
#define TILE__CHOL_PFK 2
