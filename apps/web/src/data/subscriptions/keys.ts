// What Stripe knows of an organization (payment method, invoices, the next invoice, its contact).
export const subscriptionKeys = {
  all: ['subscriptions'] as const,
  organization: (id: number) => [...subscriptionKeys.all, 'organization', id] as const,
  paymentMethod: (id: number) => [...subscriptionKeys.organization(id), 'payment-method'] as const,
  paymentHistory: (id: number) => [...subscriptionKeys.organization(id), 'payment-history'] as const,
  invoicePreview: (id: number) => [...subscriptionKeys.organization(id), 'invoice-preview'] as const,
  billingContact: (id: number) => [...subscriptionKeys.organization(id), 'billing-contact'] as const,
};
