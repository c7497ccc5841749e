#define TILE__CHOL_LO 1
