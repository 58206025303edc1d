# test: the whole suite README names.  Each area adds its own prerequisites
# with a `test: <target>` line in its mk/*.mk file.
test: unit
