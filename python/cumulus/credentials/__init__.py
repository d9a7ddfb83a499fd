"""Credentials on the cluster's machines (``cumulus.credentials.google``), as Coiled's ``coiled.credentials``."""
