--- luma.cluster.kernel (to be filled): its public members, merged into luma.cluster.
return {}
