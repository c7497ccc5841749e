/* chol variant: as ll2, the panel columns through shared memory, no launch bounds (134 registers since the nineteenth session's slot shift, 3 blocks an SM) */
#define TILE__CHOL_LL 2
#define TILE__CHOL_LL_LT 1
#define TILE__CHOL_LL_MINB 0
