/* n = 32 staging variant (issue 10) */
#define TILE__CHOL_S32X 5
