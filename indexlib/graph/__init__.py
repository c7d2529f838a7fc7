"""The code graph: the GraphView and expansion over calls, imports and containment (`expand`),
Personalized PageRank diffusion and on-path context (`diffuse`), call resolution per language
(`resolve`) behind the snapshot's GraphView (`view`), and the bounded openCypher profile of
`qry graph` (`query/`).
"""
