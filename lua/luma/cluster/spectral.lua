--- luma.cluster.spectral (to be filled): its public members, merged into luma.cluster.
return {}
