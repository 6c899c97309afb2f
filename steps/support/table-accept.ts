/** What kubectl get --watch sends: Tables first (staging/src/k8s.io/kubectl/pkg/cmd/get/get.go, the Table Accept list). */
export const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
