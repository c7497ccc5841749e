/* chol variant: n = 16 stores each chunk of L at the step that makes its rows final */
#define TILE__CHOL_S16ST 1
