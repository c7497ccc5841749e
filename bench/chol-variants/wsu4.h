#define TILE__CHOL_WS_UNROLL _Pragma("unroll 4")
