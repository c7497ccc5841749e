#define TILE__CHOL_ZK 3
#define TILE__CHOL_ZN 1
