#define TILE__CHOL_XCS 1
