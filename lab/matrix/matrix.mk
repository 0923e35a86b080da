# matrix: labs × kernels × repeats, each cell a `mstlab run` of its own
# (a child process), into one results tree with one verdict (matrix.json,
# junit.xml, TAP); --resume runs only what is left.
LIBRARIES += matrix
matrix_DIR := lab/matrix
matrix_SRCS := lab/matrix/matrix.c lab/matrix/matrix_compare.c lab/matrix/matrix_html.c \
	lab/matrix/matrix_junit.c
matrix_USES := model util
matrix_LDLIBS := -ljansson

# The plan of cells, matrix.json written and read back, junit.xml.
UNIT_TESTS += test_matrix
test_matrix_SRCS := tests/unit/test_matrix.c
test_matrix_USES := matrix
