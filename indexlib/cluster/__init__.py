"""qry on a Ray cluster: parsing as Ray tasks (raybuild.py), indexes served by Ray actors (serve.py).

Ray is an optional extra (`pip install 'qry-search[cluster]'`) and is imported only inside these modules'
functions (connect.py), so no other command pays for it.
"""
