/* blocked f64 kernels, all: the panel factor's next pivot in every lane (issue 10) */
#define TILE__CHOL_FSX_BLK_f64(LY, groups, pn2) ((pn2) ? 24 : 120)
