--- luma.cluster.graph (to be filled): its public members, merged into luma.cluster.
return {}
