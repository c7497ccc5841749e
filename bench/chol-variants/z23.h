#define TILE__CHOL_ZK 2
#define TILE__CHOL_ZN 3
