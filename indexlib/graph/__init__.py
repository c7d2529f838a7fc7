"""The code graph: expansion and diffusion over calls, imports and containment, call resolution per
language behind the GraphView, and the bounded openCypher profile of `qry graph`.
"""
