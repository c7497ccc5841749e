#define TILE__CHOL_ZK 1
#define TILE__CHOL_ZN 5
