/* n = 16 folded: the next pivot in every lane (issue 10) */
#define TILE__CHOL_S16FPV 1
