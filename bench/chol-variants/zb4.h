#define TILE__CHOL_ZB_f64 4
