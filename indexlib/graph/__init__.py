"""The code graph: expansion and diffusion over calls, imports and containment (`expand`), call
resolution per language (`resolve`) behind the snapshot's GraphView (`view`), and the bounded
openCypher profile of `qry graph` (`query/`).
"""
