"""The read path of `qry search`: query text -> a plan -> streams over one snapshot -> fusion and ranking
-> graph expansion -> bounded snippets.
"""
