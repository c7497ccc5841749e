#define TILE__CHOL_S16F 1
