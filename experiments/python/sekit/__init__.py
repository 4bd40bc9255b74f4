"""SEKit's Python side (the package skeleton comes with the branch that makes it a package):
``sekit.tracking`` records runs made in Python through the ``sekit`` binary, ``sekit.catalog`` reads
the catalogue back."""
