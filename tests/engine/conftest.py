# The tests of a variant that exists only in a copy of the tree (``test_variant_in_three_files``
# adds it there): here its module would not import, so it is neither collected nor doctested.
collect_ignore = ["mercenary_surge.py"]
