/* blocked f64 S kernels: the panel factor's next pivot in every lane (issue 10) */
#define TILE__CHOL_PVLY_S 1
#define TILE__CHOL_PVLY_P 0
#define TILE__CHOL_FSX_BLK_f64(LY, groups, pn2) ((pn2) ? 24 : (TILE__CHOL_PVLY_##LY ? 120 : 56))
