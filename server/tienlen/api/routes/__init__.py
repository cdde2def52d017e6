"""One blueprint per resource group of API v1."""
